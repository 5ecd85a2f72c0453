args: validate --serving serving/genai_perf_llama31_8b_c100.json --model 8b --gpu h100 --gpus 1
exit: 0
