args: place --model 70b --system dgx-h100 --gpus 16 --tp 4 --dp 5
exit: 2
