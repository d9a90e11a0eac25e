/* example.h: a small device-runtime interface, the kind of header a host and an accelerator
 * share. Every record lays out on all five abikit targets:
 *
 *   abikit layout --target riscv64-unknown-elf -march=rv64gc examples/example.h
 *   abikit layout --target dpu-upmem-dpurte examples/example.h
 *   abikit layout --target colossus-graphcore-elf examples/example.h --json
 *   abikit layout --target nvptx64-nvidia-cuda examples/example.h --record packet_header
 *   abikit layout --target amdgcn-amd-amdhsa -mcpu=gfx906 examples/example.h --emit-c-asserts
 */
#ifndef ABIKIT_EXAMPLE_H
#define ABIKIT_EXAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* Where a job is in its life. */
enum job_state { JOB_IDLE, JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED = -1 };

/* A one-byte enum (packed): used inside wire formats. */
enum __attribute__((packed)) opcode { OP_NOP = 0, OP_READ = 1, OP_WRITE = 2, OP_FENCE = 0x80 };

/* A network-style header: bit-fields of several declared types, one unnamed. */
struct packet_header {
  unsigned int version : 4;
  unsigned int ihl : 4;
  unsigned int dscp : 6;
  unsigned int ecn : 2;
  uint16_t total_length;
  unsigned short flags : 3;
  unsigned short : 1; /* reserved */
  unsigned short fragment : 12;
  uint8_t ttl;
  enum opcode op;
  uint32_t checksum;
};

/* The same data as it travels: packed, so nothing is padded. */
struct __attribute__((packed)) wire_record {
  uint8_t kind;
  uint32_t length;
  uint64_t timestamp;
  enum opcode op;
  uint16_t crc;
};

/* A type-length-value entry under #pragma pack(2). */
#pragma pack(push, 2)
struct tlv {
  uint8_t type;
  uint32_t length;
  uint8_t value[6];
};
#pragma pack(pop)

/* A 3-D point and a bounding box built from it. */
struct vec3 {
  float x, y, z;
};

struct bounds {
  struct vec3 min;
  struct vec3 max;
  double volume;
};

/* A tagged union: the tag, then one of several payloads in an anonymous union. */
struct message {
  enum job_state state;
  uint8_t tag;
  union {
    int32_t i;
    float f;
    struct vec3 v;
    char text[12];
  };
  long long sequence;
};

/* A queue descriptor on its own cache line; the producer index on the next. */
struct __attribute__((aligned(64))) ring {
  uint32_t head;
  uint32_t tail;
  uint32_t mask;
  uint32_t producer __attribute__((aligned(64)));
  void* slots;
};

/* Callbacks the runtime calls. */
struct device_ops {
  int (*open)(void* ctx, const char* name);
  void (*close)(void* ctx);
  long (*transfer)(void* ctx, void* buf, size_t len);
  void* ctx;
};

/* A log entry with a flexible array of 32-bit words. */
struct log_entry {
  uint16_t level;
  uint16_t words;
  uint32_t source : 24;
  uint32_t : 0; /* start the payload on a fresh word */
  uint32_t payload[];
};

/* Four floats in one vector register where the target has one. */
typedef float float4_t __attribute__((vector_size(16)));

struct particle {
  float4_t position;
  float4_t velocity;
  _Bool alive;
};

/* A status word: a union of a raw value and its fields. */
typedef union {
  uint32_t raw;
  struct {
    uint32_t ready : 1;
    uint32_t error : 1;
    uint32_t code : 6;
    uint32_t count : 24;
  } bits;
} status_word;

#endif /* ABIKIT_EXAMPLE_H */
