args: place --model 70b --system dgx-h100 --gpus 6 --tp 3 --gpus-per-node 6
exit: 2
