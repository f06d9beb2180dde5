// property: valid-memcleanup valid-memcleanup
// valid-memcleanup asks for every block to be freed when the program ends, however it ends:
// abort() with a block still allocated violates it (under valid-memtrack it stays undecided).
#include <stdlib.h>
int main(void) {
  int *p = malloc(sizeof(int));
  abort();
  free(p);
  return 0;
}
