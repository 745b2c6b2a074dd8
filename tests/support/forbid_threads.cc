// Preloaded (LD_PRELOAD) into the tests that do not carry the label `threaded` or `threads`:
// a second thread in one of them ends it with a message. Those labels tell the aarch64 preset
// which tests to leave out under qemu-user, which stops at a program's second thread; this keeps
// the labels true as tests change. <pthread.h> is not included: its declaration would clash.
#include <cstdio>
#include <cstdlib>

extern "C" int pthread_create(void*, const void*, void* (*)(void*), void*) {
  std::fputs(
      "forbid_threads: this test started a thread; list it under THREADED in "
      "tests/CMakeLists.txt (label `threaded`)\n",
      stderr);
  std::abort();
}
