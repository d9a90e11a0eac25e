// abikit: ABI answers for heterogeneous targets (the driver is run() in run.cpp).
#include "cli.h"

int main(int argc, char** argv) {
  return abikit::cli::run(argc, argv);
}
