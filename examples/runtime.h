/* runtime.h: the functions of the device runtime whose records example.h declares. Where does
 * each argument and result go?
 *
 *   abikit call --target riscv32-unknown-elf -march=rv32imafd -mabi=ilp32d examples/runtime.h
 *   abikit call --target dpu-upmem-dpurte examples/runtime.h --function submit
 *   abikit call --target colossus-graphcore-elf -mcpu=ipu2 examples/runtime.h --json
 *   abikit call --target riscv64-unknown-elf examples/runtime.h --function log_printf \
 *       --variadic-args double,int
 */
#ifndef ABIKIT_RUNTIME_H
#define ABIKIT_RUNTIME_H

#include "example.h"

int dev_open(const struct device_ops* ops, const char* name, unsigned flags);
struct vec3 vec3_add(struct vec3 a, struct vec3 b);
struct bounds bounds_of(const struct vec3* points, size_t count);
double bounds_volume(struct bounds b);
long long submit(struct message m, enum opcode op, float scale, double deadline);
status_word poll_status(struct ring* r, uint8_t lane, int16_t delta);
int64_t mix(int32_t a, int64_t b, int32_t c, double d, float e);
_Bool push(struct ring* r, struct tlv entry, uint64_t stamp);
int log_printf(uint16_t level, const char* fmt, ...);

#endif /* ABIKIT_RUNTIME_H */
