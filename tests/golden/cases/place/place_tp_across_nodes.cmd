args: place --model 70b --system dgx-h100 --gpus 16 --tp 16
exit: 0
