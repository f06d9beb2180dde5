// SV-COMP boilerplate: includes, typedefs, attributes, __assert_fail, #define constants.
#include <stdio.h>
#include <assert.h>
typedef unsigned int size_t;
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "boilerplate.c", 3, "reach_error"); }
#define LIMIT 0x10
#define TWICE (2 * LIMIT)
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
int main(void) {
  size_t n = LIMIT;
  int k = __VERIFIER_nondet_int();
  assume_abort_if_not(k >= 0 && k <= TWICE);
  if (k > 32) { reach_error(); }
  if (n != 16u) { reach_error(); }
  return 0;
}
