args: place --model 70b --system dgx-h100 --rate 4 --input 8192 --output 512 --prefix-hit 0.8
exit: 0
