// Declarations only (include/CFuzzDriver.h); the definition comes from libFuzzer, linked by -sanitize=fuzzer.
#include "CFuzzDriver.h"
