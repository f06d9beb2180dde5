// C evaluates a call's arguments before the call: the atomic function's body runs as one
// step, but `value` is read into its argument before that step, and the writer may run in
// between. Inlined (to keep `same` a local), the arguments are evaluated before the atomic
// section opens, so the error stays reachable: unsafe.
#include <pthread.h>
void reach_error(void);
int value;
void __VERIFIER_atomic_check(int *out, int seen) { *out = seen == value; }
void *reader(void *a) {
  int same;
  __VERIFIER_atomic_check(&same, value);
  if (!same) reach_error();
  return 0;
}
void *writer(void *a) {
  value = 1;
  return 0;
}
int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
