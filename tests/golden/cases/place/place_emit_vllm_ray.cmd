args: place --model 405b --system dgx-h100 --gpus 16 --tp 8 --pp 2 --emit vllm
exit: 0
