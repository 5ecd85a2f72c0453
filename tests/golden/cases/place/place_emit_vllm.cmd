args: place --model 70b --system dgx-h100 --rate 5 --input 2048 --output 256 --emit vllm
exit: 0
