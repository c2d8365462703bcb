#version 450
// Particles as a struct of vectors in a std140 buffer (an n-body integration step): counted in floats.
layout(local_size_x_id = 0) in;
struct Particle { vec4 pos; vec4 vel; };
layout(std140, binding = 0) buffer Pos { Particle particles[]; };
layout(push_constant) uniform P { float dt; uint count; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        particles[i].pos += p.dt * particles[i].vel;
}
