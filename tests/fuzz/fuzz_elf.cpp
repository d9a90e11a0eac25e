// libFuzzer target over the ELF reader, the note decoders (MessagePack, V2 records, GNU notes),
// `.riscv.attributes`, the text and JSON writers and link-check. Anything but an abikit::Error
// escaping, a crash, a hang or an out-of-bounds access (ASan/UBSan) is a bug.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  try {
    abikit::ElfFile f = abikit::ElfFile::fromMemory("fuzz.o", bytes);
    std::string out;
    const abikit::ElfViewOptions all{true, true, true};
    try {
      abikit::appendElfText(f, all, out);
    } catch (const abikit::Error&) {
    }
    out.clear();
    try {
      abikit::appendElfJson(f, all, out);
    } catch (const abikit::Error&) {
    }
    const abikit::ElfFile* two[] = {&f, &f};
    try {
      abikit::linkConflicts(two);
    } catch (const abikit::Error&) {
    }
  } catch (const abikit::Error&) {
  }
  // The MessagePack decoder and its YAML writer on the raw bytes as well, so that the fuzzer
  // reaches them without having to build the ELF framing around them.
  try {
    abikit::MsgPackDocument doc = abikit::MsgPackDocument::parse(bytes, "fuzz", 0);
    std::string yaml = doc.toYaml();
    (void)yaml;
  } catch (const abikit::Error&) {
  }
  return 0;
}
