#include "abikit/target.h"

#include <gtest/gtest.h>

TEST(Targets, KnownTargetsListsEveryFamily) {
  auto all = abikit::knownTargets();
  EXPECT_FALSE(all.empty());
}
