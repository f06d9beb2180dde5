// expect: 9:7: unsupported: a static or address-taken local in a function several threads run
// Two threads call work(), whose local `mine` has its address taken (and kept in a pointer):
// made one global, one thread's write would reach the other. Each thread needs its own copy.
#include <pthread.h>
void reach_error(void);
int g;
void work(int v) {
  int *p;
  int mine;
  p = &mine;
  *p = v;
  g = g + 1;
  if (mine != v) reach_error();
}
void *t1(void *a) { work(1); return 0; }
void *t2(void *a) { work(2); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
