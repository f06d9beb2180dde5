// property: valid-memsafety
// What a preprocessed task (`gcc -E`) brings from the C library: prototypes with
// function-pointer parameters, a typedef of an array, structs with array fields, a
// header function calling a builtin that the program never calls; and `((void *)0)` for
// NULL. None of it is used, so none of it keeps the shape engine from its proof.
typedef int __jmp_buf[6];
typedef struct { unsigned long __val[32]; } __sigset_t;
struct __jmp_buf_tag { __jmp_buf __jmpbuf; int __mask_was_saved; __sigset_t __saved_mask; };
extern int atexit (void (*__func) (void)) __attribute__ ((__nothrow__ , __leaf__));
extern void qsort (void *__base, unsigned long __nmemb, unsigned long __size,
                   int (*__compar) (const void *, const void *));
static __inline unsigned short __bswap_16 (unsigned short __bsx) {
  return __builtin_bswap16 (__bsx);
}
extern void *malloc (unsigned long __size);
extern void free (void *__ptr);
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; };
int main() {
  struct node *list = ((void *)0);
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    n->next = list;
    list = n;
  }
  while (list != ((void *)0)) {
    struct node *next = list->next;
    free(list);
    list = next;
  }
  return 0;
}
