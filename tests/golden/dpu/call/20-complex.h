/* _Complex values are aggregates for argument passing. */
_Complex float f(_Complex double z, int a);
