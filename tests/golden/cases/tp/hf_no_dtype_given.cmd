args: tp --hf-config hf/no_dtype.json --dtype fp16 --wire nvlink4 --json
exit: 0
