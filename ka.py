import http.client, hashlib, threading, collections
S='636c374016ee4685c59c3213a35204c0bd49227d7e7dff2d346d482d4fbed977'
png=open('/tmp/ft/a.png','rb').read()
bad=collections.Counter(); lock=threading.Lock()
def w(k):
    c=http.client.HTTPConnection('127.0.0.1',18555,timeout=5)
    for i in range(300):
        m=i%4
        if m==0: c.request('GET',f'/artifacts/{S}.png')
        elif m==1: c.request('GET',f'/artifacts/{S}.png',headers={'If-None-Match':f'"{S}"'})
        elif m==2: c.request('HEAD',f'/artifacts/{S}.png')
        else: c.request('GET',f'/artifacts/{S}.json')
        r=c.getresponse(); b=r.read()
        exp={0:(200,png),1:(304,b''),2:(200,b''),3:(404,None)}[m]
        okk = r.status==exp[0] and (exp[1] is None or b==exp[1])
        hdr = r.getheader('Cache-Control'), r.getheader('X-Content-Type-Options'), r.getheader('Content-Security-Policy'), r.getheader('ETag')
        if m in (0,1,2) and hdr!=('public, max-age=31536000, immutable','nosniff','sandbox',f'"{S}"'): okk=False
        if m==2 and r.getheader('Content-Length')!=str(len(png)): okk=False
        if not okk:
            with lock: bad[(m,r.status,len(b),hdr)]+=1
ts=[threading.Thread(target=w,args=(k,)) for k in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
print('bad', dict(bad) or 'none', 'of', 8*300)
