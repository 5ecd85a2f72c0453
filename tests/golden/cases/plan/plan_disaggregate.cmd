args: plan --model 70b --input 8192 --output 512 --ttft 3s --tpot 12ms --rate 2 --disaggregate --system aws-p5,aws-p5en
exit: 0
