// The workgroup size of size_in_header.comp, declared in a header the shader includes, as some projects share one.
layout(local_size_x = 64) in;
