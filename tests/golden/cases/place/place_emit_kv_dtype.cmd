args: place --model 70b --system dgx-h100 --kv-dtype int8 --emit vllm
exit: 2
