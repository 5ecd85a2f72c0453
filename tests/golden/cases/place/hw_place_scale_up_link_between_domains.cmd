args: place --model 70b --system dgx-h100 --gpus 16 --scale-out nvlink4
exit: 2
