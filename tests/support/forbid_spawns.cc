// Preloaded (LD_PRELOAD) into the tests that carry neither the label `spawns` nor `threads`: a
// second thread or a child process started by one of them ends it with a message. Those labels
// tell the aarch64 preset which tests to leave out under qemu-user 7.2, which stops at a
// program's second thread and in a forked child (its own thread there); this keeps the labels
// true as tests change. <pthread.h> and <unistd.h> are not included: their declarations clash.
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void refuse(const char* what) {
  std::fprintf(stderr,
               "forbid_spawns: this test started a %s; list it under SPAWNS in tests/CMakeLists.txt "
               "(label `spawns`)\n",
               what);
  std::abort();
}

}  // namespace

extern "C" int pthread_create(void*, const void*, void* (*)(void*), void*) { refuse("thread"); }
extern "C" int fork() { refuse("process"); }
