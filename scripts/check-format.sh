#!/usr/bin/env bash
# Fails if any C++ file is not clang-format clean.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format)
git ls-files '*.cpp' '*.h' | xargs "$fmt" --dry-run --Werror
