args: place --model deepseek-v3 --system dgx-h200 --dtype bf16 --emit vllm
exit: 2
