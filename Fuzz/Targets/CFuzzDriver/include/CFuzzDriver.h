// libFuzzer's documented entry for programs that own `main` (compiler-rt FuzzerInterface.h): runs the fuzzing
// loop with libFuzzer's command-line flags, calling `callback` once per input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
