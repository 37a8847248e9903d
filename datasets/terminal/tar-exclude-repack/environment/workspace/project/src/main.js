console.log('main');
