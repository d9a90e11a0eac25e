#pragma pack(2)
struct pack2 {
  char c;
  long l;
  int i;
};
#pragma pack(4)
struct pack4 {
  char c;
  double d;
  char e;
};
#pragma pack()
