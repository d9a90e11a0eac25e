// libFuzzer target over the ELF reader, the archive reader, the note decoders (MessagePack, V2
// records, GNU notes),
// `.riscv.attributes`, checkElfView, the text and JSON writers and link-check (the bytes are the
// object; fuzz_elf_struct.cpp builds objects from a recipe instead). Anything but an abikit::Error
// escaping, a crash, a hang or an out-of-bounds access (ASan/UBSan) is a bug.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Drops what it is handed: the writers' output is produced and thrown away chunk by chunk.
class DropSink : public abikit::OutputSink {
public:
  DropSink() : OutputSink({}, kChunk) {}
  void flush() override { buffer_.clear(); }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  try {
    abikit::ElfFile f = abikit::ElfFile::fromMemory("fuzz.o", bytes);
    const abikit::ElfViewOptions all{true, true, true};
    // What `abikit elf --symbols --relocs --notes [--json]` runs: the check, then the writers,
    // which must not throw once the check accepted the file (the CLI streams their output).
    bool checked = true;
    try {
      abikit::checkElfView(f, all);
    } catch (const abikit::Error&) {
      checked = false;
    }
    DropSink sink;
    try {
      abikit::writeElfText(f, all, sink);
      abikit::writeElfJson(f, all, sink);
    } catch (const abikit::Error& e) {
      if (checked) {
        std::fprintf(stderr, "checkElfView() accepted the file, the writers threw: %s\n",
                     e.format().c_str());
        std::abort();
      }
    }
    const abikit::ElfFile* two[] = {&f, &f};
    try {
      abikit::linkConflicts(two);
    } catch (const abikit::Error&) {
    }
  } catch (const abikit::Error&) {
  }
  // The archive reader: every member it finds lies within the bytes and is read as an object.
  if (abikit::isArchive(bytes)) {
    try {
      for (const abikit::ArchiveMember& m : abikit::archiveMembers(bytes, "fuzz.a")) {
        if (m.bytes.data() < bytes.data() || m.bytes.data() + m.bytes.size() > bytes.data() + size)
          std::abort();
        try {
          abikit::ElfFile::fromMemory("fuzz.a(" + m.name + ")", m.bytes);
        } catch (const abikit::Error&) {
        }
      }
    } catch (const abikit::Error&) {
    }
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
