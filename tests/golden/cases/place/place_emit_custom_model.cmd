args: place --hidden 4096 --layers 32 --params 8e9 --system dgx-h100 --emit vllm
exit: 2
