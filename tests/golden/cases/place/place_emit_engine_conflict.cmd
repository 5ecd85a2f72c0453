args: place --model 70b --system dgx-h100 --emit sglang --engine vllm
exit: 2
