// Seed 004, Fig. 1 with the first two statements of P1's loop body swapped, beside P2;
// entering the critical section is the visible action (labels `action_*`).
#include <pthread.h>
int flag1, flag2, turn, critical1, critical2;
void *p1(void *arg) {
  while (1) {
    turn = 2;
    flag1 = 1;
  action_enter1:
    __VERIFIER_assume(flag2 == 0 || turn == 1);
    critical1 = 1;
    critical1 = 0;
    flag1 = 0;
  }
  return 0;
}
void *p2(void *arg) {
  while (1) {
    flag2 = 1;
    turn = 1;
  action_enter2:
    __VERIFIER_assume(flag1 == 0 || turn == 2);
    critical2 = 1;
    critical2 = 0;
    flag2 = 0;
  }
  return 0;
}
int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, p1, 0);
  pthread_create(&q, 0, p2, 0);
  return 0;
}
