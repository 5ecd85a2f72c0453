args: place --model 70b --system dgx-a100 --gpus 32 --tp 8 --dp 4
exit: 0
