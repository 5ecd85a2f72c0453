args: place --model 8b --gpu h100-sxm --rate 1 --input 10 --output 20 --prefix-hit 0.9 --fast
exit: 0
