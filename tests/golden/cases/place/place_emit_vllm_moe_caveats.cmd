args: place --model mixtral-8x7b --system dgx-h100 --tp 2 --ep 4 --phase decode --emit vllm
exit: 0
