args: tp --model meta-llama/Llama-3.1-70B-Instruct --wire nvlink4
exit: 0
