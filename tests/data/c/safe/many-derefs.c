// A dozen conditional updates through a pointer: each dereference is checked by a call of a
// helper that never returns (`__invalid_dereference`); the paths after those calls must merge,
// or the clauses double with every update (tests/c_frontend.rs counts them).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct counter {
  int v;
};

int main() {
  struct counter *c = malloc(sizeof(struct counter));
  if (!c) {
    return 0;
  }
  c->v = 0;
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (__VERIFIER_nondet_int()) {
    c->v = c->v + 1;
  }
  if (c->v > 12) {
    reach_error();
  }
  free(c);
  return 0;
}
