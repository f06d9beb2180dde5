// Conditional compilation picks the unsafe branch: `CHECKED` is not defined, so the `#else`
// group (which reaches the error) is kept; the nested groups and `#elif` choose `BOUND 3`.
// (safe/preproc-conditional.c is the other branch.)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#undef CHECKED
#define VERSION 3
#ifndef NULL
#define NULL 0
#endif
#if VERSION >= 3 && defined(CHECKED) && !defined UNDEFINED_NAME
#  if (VERSION * 2 + 1) % 4 == 3 || 1 / 0
#    define BOUND 100
#  else
#    define BOUND 1
#    error never taken, never evaluated
#  endif
#elif VERSION == 2
#  define BOUND 2
#else
#  define BOUND 3
#endif
int main() {
  int x = __VERIFIER_nondet_int();
#ifdef CHECKED
  if (x < 0 || x > BOUND) return NULL;
#else
  x = -1;
#endif
  if (x < 0) reach_error();
  return 0;
}
