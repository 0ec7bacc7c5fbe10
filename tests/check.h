/*
 * check.h - the few macros our C tests need.  Each test binary prints one
 * "PASS name" or "FAIL name" line per test and a closing "N passed, N failed";
 * tests/run.sh adds the lines of every binary and script (and their
 * "SKIP name: why" lines) into the suite's closing line, "N passed,
 * N failed, N skipped".  (A framework such as cmocka prints its summary in its own
 * format on stderr; one plain format across C and shell tests is simpler.)
 */
#ifndef VTASIM_CHECK_H
#define VTASIM_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures_; /* failed checks in the running test */
static int tests_passed_, tests_failed_;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      check_failures_++;                                                     \
      printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                        \
  } while (0)

#define CHECK_MSG(cond, ...)                                                 \
  do {                                                                       \
    if (!(cond)) {                                                           \
      check_failures_++;                                                     \
      printf("  %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);      \
      printf(__VA_ARGS__);                                                   \
      printf("\n");                                                          \
    }                                                                        \
  } while (0)

#define CHECK_EQ(a, b)                                                       \
  do {                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                      \
    if (a_ != b_) {                                                          \
      check_failures_++;                                                     \
      printf("  %s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, \
             #a, #b, a_, b_);                                                \
    }                                                                        \
  } while (0)

/* The message contains a substring. */
#define CHECK_CONTAINS(msg, sub)                                             \
  do {                                                                       \
    const char *m_ = (msg);                                                  \
    if (!m_ || !strstr(m_, (sub))) {                                         \
      check_failures_++;                                                     \
      printf("  %s:%d: expected \"%s\" in: %s\n", __FILE__, __LINE__, (sub), \
             m_ ? m_ : "(null)");                                            \
    }                                                                        \
  } while (0)

static inline void run_test_(const char *name, void (*fn)(void)) {
  check_failures_ = 0;
  fn();
  if (check_failures_) {
    tests_failed_++;
    printf("FAIL %s\n", name);
  } else {
    tests_passed_++;
    printf("PASS %s\n", name);
  }
  fflush(stdout);
}

#define RUN(fn) run_test_(#fn, fn)

static inline int test_summary_(void) {
  printf("%d passed, %d failed\n", tests_passed_, tests_failed_);
  return tests_failed_ ? 1 : 0;
}
#define TEST_SUMMARY() test_summary_()

#endif
