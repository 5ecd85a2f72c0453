args: place --model 70b --system dgx-h100 --gpus 12
exit: 2
