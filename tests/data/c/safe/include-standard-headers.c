// Standard headers, quoted or not, are known without being read.
#include "assert.h"
#include <stdlib.h>
#include <pthread.h>
#include <verifier-builtins.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "f.c", 3, "reach_error"); }
int main(void) {
  int x = 1;
  if (x != 1) reach_error();
  return 0;
}
