// expect: 4:3: unsupported: goto
int main() {
  int x = 0;
  goto end;
  x = 1;
  end: return x;
}
