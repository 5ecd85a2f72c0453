args: plan --model 70b --input 2048 --output 256 --ttft p99:300ms --tpot p90:20ms --rate 5 --system aws-p5,aws-p5en,aws-p4d
exit: 0
