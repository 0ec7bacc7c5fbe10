/*
 * scripts/copy_speed.c - the memory speed that `make bench` sets the binary
 * bundle loader against, measured on the same bytes in the same run: the
 * file's bytes copied by memcpy into fresh pages (what the loader's copy of
 * each segment into the program costs at best: new pages are faulted in and
 * zeroed by the kernel), into pages already touched (the copy alone, the
 * memory bandwidth), and read() from the page cache into fresh pages (what
 * `cat FILE > buffer` costs).  Best of REPEAT each.
 *
 *   copy_speed FILE [REPEAT]   prints one JSON object (seconds)
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fresh anonymous pages, as malloc gives a large block in a new process. */
static unsigned char *fresh(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    perror("copy_speed: mmap");
    exit(2);
  }
  return p;
}

/* Keeps the compiler from dropping a copy whose result nobody reads. */
static void used(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

static size_t read_all(const char *path, unsigned char *dst, size_t n) {
  int fd = open(path, O_RDONLY);
  size_t got = 0;
  while (fd >= 0 && got < n) {
    ssize_t k = read(fd, dst + got, n - got);
    if (k <= 0) break;
    got += (size_t)k;
  }
  if (fd >= 0) close(fd);
  return got;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: copy_speed FILE [REPEAT]\n");
    return 2;
  }
  int repeat = argc > 2 ? atoi(argv[2]) : 5;
  struct stat st;
  if (stat(argv[1], &st) || st.st_size <= 0) {
    fprintf(stderr, "copy_speed: %s: not a non-empty file\n", argv[1]);
    return 2;
  }
  size_t n = (size_t)st.st_size;
  unsigned char *src = malloc(n), *warm = malloc(n);
  if (!src || !warm || read_all(argv[1], src, n) != n) {
    fprintf(stderr, "copy_speed: cannot read %s\n", argv[1]);
    return 2;
  }
  memset(warm, 1, n);
  double best_fresh = 1e9, best_warm = 1e9, best_read = 1e9;
  for (int r = 0; r < (repeat > 0 ? repeat : 1); r++) {
    unsigned char *dst = fresh(n);
    double t = now();
    memcpy(dst, src, n);
    used(dst);
    t = now() - t;
    munmap(dst, n);
    if (t < best_fresh) best_fresh = t;

    t = now();
    memcpy(warm, src, n);
    used(warm);
    t = now() - t;
    if (t < best_warm) best_warm = t;

    dst = fresh(n);
    t = now();
    size_t got = read_all(argv[1], dst, n);
    used(dst);
    t = now() - t;
    munmap(dst, n);
    if (got != n) {
      fprintf(stderr, "copy_speed: %s changed while being read\n", argv[1]);
      return 2;
    }
    if (t < best_read) best_read = t;
  }
  printf("{\"bytes\": %zu, \"memcpy_fresh_s\": %.9f, \"memcpy_warm_s\": %.9f, "
         "\"read_fresh_s\": %.9f}\n", n, best_fresh, best_warm, best_read);
  free(src);
  free(warm);
  return 0;
}
