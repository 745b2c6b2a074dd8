# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -DNAMESPACE=ns -P embed_file.cmake
# Writes a C++ source defining `const unsigned char SYMBOL_BYTES[]` and `SYMBOL_SIZE` with the
# bytes of INPUT (the default network, embedded in the binary).
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}"
     "// Generated from ${INPUT} by cmake/embed_file.cmake; do not edit.\n"
     "#include <cstddef>\n\nnamespace ${NAMESPACE} {\n"
     "extern const unsigned char ${SYMBOL}Bytes[];\nextern const size_t ${SYMBOL}Size;\n"
     "alignas(64) const unsigned char ${SYMBOL}Bytes[] = {\n${bytes}\n};\n"
     "const size_t ${SYMBOL}Size = ${size};\n}\n")
