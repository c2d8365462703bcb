#!/bin/sh
# Session 20 device call: the init / third-party CLI tests and session 20's trial shaders on the H200's NVIDIA driver.
B=$PWD/.dev20/vkautotune
O=${OUT:-/tmp/out}
$B devices 2>&1 | head -4
echo "## CLI tests (written here), default device"
for t in local_size_replace init init_bounds init_idioms init_index init_params init_trial fields unmodified_e2e push_vectors; do
    r=$(sh tests/cli/$t.sh "$B" . 2>&1 | tail -1)
    echo "$t: $r"
    sh tests/cli/$t.sh "$B" . > "$O/$t.log" 2>&1 || true
done > "$O/cli.txt" 2>&1
cat "$O/cli.txt"
echo "## session 20 trial shaders: init as written, then --budget 10"
T=.dev20/trial
run() { name=$1; shader=$2; shift 2
    $B init "$T/$shader" -o "$T/$name.ini" "$@" > "$T/$name.init.err" 2>&1
    timeout 120 $B "$T/$shader" --space "$T/$name.ini" --budget 10 --db "$T/$name.db" > "$T/$name.out" 2> "$T/$name.err"
    echo "$name: rc=$? $(grep -h ' evaluated' "$T/$name.out" | head -1) | $(tail -n 1 "$T/$name.err")"
}
{
run histeq histeq.comp
run bufref bufref.comp
run softmax llama/soft_max.comp -D A_TYPE=float -D B_TYPE=float -D D_TYPE=float -D FLOAT_TYPE=float
run atomic64 atomic64.comp
run cast ncnn/cast_fp32_to_fp16.comp -D NCNN_fp16_storage=1 -D sfp=float16_t -D afp=float -D 'psc(x)=(x==0?p.x:x)' -D 'buffer_st1(buf,i,v)={buf[i]=float16_t(v);}'
run tileblur tileblur.comp
run mipchain mipchain.glsl
run structmul kompute/SHADER_Mult1.comp
run printf kompute/example_shader.comp
run dwconv dwconv.comp -D USE_FP16=1
} > "$O/trial.txt" 2>&1
cat "$O/trial.txt"
tar czf "$O/trial-files.tgz" $T/*.ini $T/*.out $T/*.err 2>/dev/null
