// pthread_cond_wait releases the mutex: while the waiter waits, the other thread takes the
// mutex and sees the waiter's g = 1 (goblint's regression 13/67, a true alarm).
#include <pthread.h>
void reach_error(void);
int g;
pthread_mutex_t mut;
pthread_cond_t cond;
void *f1(void *ptr) {
  pthread_mutex_lock(&mut);
  g = 1;
  pthread_cond_wait(&cond, &mut);
  g = 0;
  pthread_mutex_unlock(&mut);
  return 0;
}
void *f2(void *ptr) {
  pthread_mutex_lock(&mut);
  if (g != 0) reach_error();
  g = 0;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&mut);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, f1, 0);
  pthread_create(&t2, 0, f2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
