extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
enum state { IDLE, RUNNING, DONE };
int main(void) {
  enum state s = IDLE;
  while (__VERIFIER_nondet_int()) {
    switch (s) {
    case IDLE: s = RUNNING; break;
    case RUNNING: s = DONE; break;
    default: break;
    }
  }
  if (s == DONE)
    reach_error();
  return 0;
}
