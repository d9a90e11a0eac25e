#pragma pack(2)
struct pack_caps_aligned {
  char c;
  int i __attribute__((aligned(8)));
};
#pragma pack(1)
struct __attribute__((aligned(8))) pack_keeps_record_aligned {
  char c;
  int i;
};
#pragma pack()
