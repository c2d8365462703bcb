#version 450
// Bad input: specialization constant 1 is a float; the space's parameter ALPHA gives integers it would round.
layout(local_size_x = 1) in;
layout(constant_id = 1) const float ALPHA = 1.0;
layout(binding = 0) buffer Buf { float v[]; };
void main() { v[0] = ALPHA; }
