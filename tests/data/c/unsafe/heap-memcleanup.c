// property: valid-memcleanup valid-memcleanup
#include <stdlib.h>
int *keep;
int main(void) {
  keep = malloc(sizeof(int));
  *keep = 1;
  return 0;
}
