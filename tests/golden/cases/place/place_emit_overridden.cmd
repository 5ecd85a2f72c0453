args: place --model 70b --system dgx-h100 --layers 40 --emit vllm
exit: 2
